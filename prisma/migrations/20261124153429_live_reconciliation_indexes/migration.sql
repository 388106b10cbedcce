-- CreateIndex
CREATE INDEX "orders_environment_status_updated_at_idx" ON "orders"("environment", "status", "updated_at");

-- CreateIndex
CREATE INDEX "orders_venue_venue_order_id_idx" ON "orders"("venue", "venue_order_id");
