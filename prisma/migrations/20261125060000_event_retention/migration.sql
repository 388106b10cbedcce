-- The event log's retention window (EVENT_RETENTION_DAYS, docs/events.md "Retention"): the
-- sweeper deletes numbered events older than the window, and records here, per workspace and
-- environment, the highest number it deleted, in the statement that deletes. A read that starts
-- after an event below it would miss deleted events, and is refused (events_expired) instead.
-- One row per workspace and environment whose events were ever deleted: read by primary key.
CREATE TABLE "event_horizons" (
    "workspace_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "expired_through" BIGINT NOT NULL,

    CONSTRAINT "event_horizons_pkey" PRIMARY KEY ("workspace_id","environment")
);
