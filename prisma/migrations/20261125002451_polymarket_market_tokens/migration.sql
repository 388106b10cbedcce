-- AlterTable
ALTER TABLE "markets" ADD COLUMN     "neg_risk" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "no_token_id" TEXT,
ADD COLUMN     "yes_token_id" TEXT;
