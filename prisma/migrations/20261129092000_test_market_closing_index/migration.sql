-- The closing of test helpers' markets due looks for them every second on every core (services/settlement/scheduledClosings.ts): by workspace and close time, not over the whole catalog.
-- CreateIndex
CREATE INDEX "markets_workspace_id_close_time_idx" ON "markets"("workspace_id", "close_time");
