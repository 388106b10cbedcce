-- CreateTable
CREATE TABLE "question_links" (
    "polymarket_condition_id" TEXT NOT NULL,
    "kalshi_ticker" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "question_links_pkey" PRIMARY KEY ("polymarket_condition_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "question_links_kalshi_ticker_key" ON "question_links"("kalshi_ticker");
