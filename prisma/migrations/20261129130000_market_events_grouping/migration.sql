-- AlterTable
ALTER TABLE "markets" ADD COLUMN     "event_id" TEXT;

-- CreateTable
CREATE TABLE "market_events" (
    "id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "venue" TEXT NOT NULL,
    "venue_event_id" TEXT NOT NULL,
    "series_key" TEXT,
    "title" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "market_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "market_events_environment_id_idx" ON "market_events"("environment", "id");

-- CreateIndex
CREATE UNIQUE INDEX "market_events_venue_venue_event_id_key" ON "market_events"("venue", "venue_event_id");

-- CreateIndex
CREATE INDEX "markets_event_id_idx" ON "markets"("event_id");

-- AddForeignKey
ALTER TABLE "markets" ADD CONSTRAINT "markets_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "market_events"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "market_events" ADD CONSTRAINT "market_events_venue_fkey" FOREIGN KEY ("venue") REFERENCES "venues"("name") ON DELETE RESTRICT ON UPDATE RESTRICT;
