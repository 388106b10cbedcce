-- A question link joins a listing of any venue to another venue's (its anchor), rather than a Kalshi
-- ticker to a Polymarket condition id: the existing links become (polymarket, condition) anchored on
-- (kalshi, ticker), the ticker being the question key the condition's row took. Written by hand:
-- Prisma's diff would drop the rows.

CREATE TEMPORARY TABLE "question_links_before" ON COMMIT DROP AS
SELECT "polymarket_condition_id", "kalshi_ticker", "created_by", "created_at" FROM "question_links";

-- DropTable (its rows kept above: every name of the new table is free again)
DROP TABLE "question_links";

-- CreateTable
CREATE TABLE "question_links" (
    "venue" TEXT NOT NULL,
    "venue_market_id" TEXT NOT NULL,
    "anchor_venue" TEXT NOT NULL,
    "anchor_market_id" TEXT NOT NULL,
    "question_key" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "question_links_pkey" PRIMARY KEY ("venue","venue_market_id")
);

INSERT INTO "question_links" ("venue", "venue_market_id", "anchor_venue", "anchor_market_id", "question_key", "created_by", "created_at")
SELECT 'polymarket', "polymarket_condition_id", 'kalshi', "kalshi_ticker", "kalshi_ticker", "created_by", "created_at" FROM "question_links_before";

-- CreateIndex
CREATE UNIQUE INDEX "question_links_anchor_venue_anchor_market_id_venue_key" ON "question_links"("anchor_venue", "anchor_market_id", "venue");

-- AddForeignKey
ALTER TABLE "question_links" ADD CONSTRAINT "question_links_venue_fkey" FOREIGN KEY ("venue") REFERENCES "venues"("name") ON DELETE RESTRICT ON UPDATE RESTRICT;

-- AddForeignKey
ALTER TABLE "question_links" ADD CONSTRAINT "question_links_anchor_venue_fkey" FOREIGN KEY ("anchor_venue") REFERENCES "venues"("name") ON DELETE RESTRICT ON UPDATE RESTRICT;
