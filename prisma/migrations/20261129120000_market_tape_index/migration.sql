-- CreateIndex
CREATE INDEX "fills_market_id_created_at_idx" ON "fills"("market_id", "created_at");
