-- CreateEnum
CREATE TYPE "WebhookDeliveryStatus" AS ENUM ('pending', 'succeeded', 'failed');

-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "event_types" TEXT[],
    "kek_id" TEXT NOT NULL,
    "secret_ciphertext" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "endpoint_id" TEXT NOT NULL,
    "event_seq" BIGINT NOT NULL,
    "event_type" TEXT NOT NULL,
    "status" "WebhookDeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL,
    "last_http_status" INTEGER,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("endpoint_id","event_seq")
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "endpoint_id" TEXT NOT NULL,
    "event_seq" BIGINT NOT NULL,
    "number" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "http_status" INTEGER,
    "error" TEXT,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("endpoint_id","event_seq","number")
);

-- CreateIndex
CREATE INDEX "webhook_endpoints_workspace_id_environment_id_idx" ON "webhook_endpoints"("workspace_id", "environment", "id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- AddForeignKey
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_endpoint_id_event_seq_fkey" FOREIGN KEY ("endpoint_id", "event_seq") REFERENCES "webhook_deliveries"("endpoint_id", "event_seq") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Deliveries are made where events are numbered (docs/webhooks.md): in the sequencer's statement,
-- one per live endpoint of the event's workspace and environment whose types take it, so that no
-- order's transaction writes a delivery and no numbered event can miss one. An endpoint takes a
-- type named exactly, or every type of an object with `<object>.*`.
CREATE OR REPLACE FUNCTION mk_sequence_events(batch integer)
RETURNS TABLE (workspace_id text, environment "Environment", last_seq bigint) LANGUAGE plpgsql AS $$
DECLARE
  base bigint;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM events e WHERE e.seq IS NULL) THEN
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock(7215001515);
  SELECT coalesce(max(e.seq), 0) INTO base FROM events e;
  RETURN QUERY
    WITH pending AS (
      SELECT e.recorded_id, base + row_number() OVER (ORDER BY e.recorded_id) AS seq
        FROM (SELECT p.recorded_id FROM events p WHERE p.seq IS NULL ORDER BY p.recorded_id LIMIT batch) e
    ), numbered AS (
      UPDATE events e SET seq = p.seq, sequenced_at = clock_timestamp()
        FROM pending p WHERE e.recorded_id = p.recorded_id
      RETURNING e.workspace_id, e.environment, e.seq, e.type
    ), deliveries AS (
      INSERT INTO webhook_deliveries (endpoint_id, event_seq, event_type, next_attempt_at)
      SELECT w.id, n.seq, n.type, clock_timestamp()
        FROM numbered n
        JOIN webhook_endpoints w ON w.workspace_id = n.workspace_id AND w.environment = n.environment AND w.deleted_at IS NULL
       WHERE EXISTS (SELECT 1 FROM unnest(w.event_types) t(pattern)
                      WHERE t.pattern = n.type OR (right(t.pattern, 2) = '.*' AND starts_with(n.type, left(t.pattern, -1))))
    )
    SELECT n.workspace_id, n.environment, max(n.seq) FROM numbered n GROUP BY n.workspace_id, n.environment;
END $$;
