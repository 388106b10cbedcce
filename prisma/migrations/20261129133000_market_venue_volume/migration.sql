-- AlterTable
ALTER TABLE "markets" ADD COLUMN     "venue_volume" DECIMAL(24,6);
