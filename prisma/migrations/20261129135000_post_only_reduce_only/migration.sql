-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "post_only" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "reduce_only" BOOLEAN NOT NULL DEFAULT false;
