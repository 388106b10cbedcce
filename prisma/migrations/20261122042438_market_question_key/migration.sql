-- AlterTable
ALTER TABLE "markets" ADD COLUMN     "question_key" TEXT;

-- CreateIndex
CREATE INDEX "markets_environment_question_key_idx" ON "markets"("environment", "question_key");

-- The simulated catalog lists each question on both venues: link the listings seeded before this.
UPDATE "markets" SET "question_key" = "venue_market_id" WHERE "venue" = 'sim_kalshi' AND "question_key" IS NULL;
UPDATE "markets" SET "question_key" = upper(substr("venue_market_id", 4)) WHERE "venue" = 'sim_polymarket' AND "question_key" IS NULL;
