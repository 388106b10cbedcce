-- CreateIndex
CREATE INDEX "complex_orders_status_idx" ON "complex_orders"("status");
