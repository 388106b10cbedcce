-- CreateTable
CREATE TABLE "events" (
    "recorded_id" BIGSERIAL NOT NULL,
    "seq" BIGINT,
    "type" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "subaccount_id" TEXT,
    "object_type" TEXT NOT NULL,
    "object_id" TEXT NOT NULL,
    "previous_status" TEXT,
    "snapshot" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sequenced_at" TIMESTAMPTZ(3),

    CONSTRAINT "events_pkey" PRIMARY KEY ("recorded_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "events_seq_key" ON "events"("seq");

-- CreateIndex
CREATE INDEX "events_seq_recorded_id_idx" ON "events"("seq", "recorded_id");

-- CreateIndex
CREATE INDEX "events_workspace_id_environment_seq_idx" ON "events"("workspace_id", "environment", "seq");

-- The event log's writers (docs/events.md). Each trigger writes its events in the transaction of the
-- change, in the same statement: no round trip is added to the order path. `snapshot` is the row as
-- the change left it (to_jsonb keeps numeric values exact; the reader turns it back into the row
-- type with jsonb_populate_record). Events are numbered later, in commit order, by
-- mk_sequence_events().

CREATE FUNCTION mk_record_event(p_type text, p_workspace_id text, p_environment "Environment", p_subaccount_id text,
                                p_object_type text, p_object_id text, p_previous_status text, p_snapshot jsonb)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO events (type, workspace_id, environment, subaccount_id, object_type, object_id, previous_status, snapshot)
  VALUES (p_type, p_workspace_id, p_environment, p_subaccount_id, p_object_type, p_object_id, p_previous_status, p_snapshot)
$$;

-- Orders: accepted (inserted), then one event per change of status or filled quantity, named by the
-- new status (order.open is "rested"); a pending order withdrawn before the venue had it (deleted)
-- is order.withdrawn. A child of a complex order that reaches a final status also settles its child.
CREATE FUNCTION mk_order_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kind text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM mk_record_event('order.withdrawn', OLD.workspace_id, OLD.environment, OLD.subaccount_id, 'order', OLD.id, OLD.status::text, to_jsonb(OLD));
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM mk_record_event('order.accepted', NEW.workspace_id, NEW.environment, NEW.subaccount_id, 'order', NEW.id, NULL, to_jsonb(NEW));
    IF NEW.status = 'pending' THEN
      RETURN NULL;
    END IF;
  ELSIF NEW.status IS NOT DISTINCT FROM OLD.status AND NEW.filled_quantity IS NOT DISTINCT FROM OLD.filled_quantity THEN
    RETURN NULL;
  END IF;
  kind := CASE NEW.status WHEN 'open' THEN 'order.rested' ELSE 'order.' || NEW.status::text END;
  PERFORM mk_record_event(kind, NEW.workspace_id, NEW.environment, NEW.subaccount_id, 'order', NEW.id,
                          CASE WHEN TG_OP = 'UPDATE' THEN OLD.status::text END, to_jsonb(NEW));
  IF NEW.complex_order_id IS NOT NULL AND NEW.status IN ('filled', 'canceled', 'rejected', 'expired')
     AND (TG_OP = 'INSERT' OR OLD.status NOT IN ('filled', 'canceled', 'rejected', 'expired')) THEN
    PERFORM mk_record_event('complex_order.child_settled', NEW.workspace_id, NEW.environment, NEW.subaccount_id, 'child_order', c.id,
                            c.status::text, to_jsonb(c))
       FROM child_orders c WHERE c.order_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER orders_events
  AFTER INSERT OR DELETE OR UPDATE OF status, filled_quantity ON orders
  FOR EACH ROW EXECUTE FUNCTION mk_order_events();

-- Fills: recorded, and reversed (the venue's trade failed after the match).
CREATE FUNCTION mk_fill_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM mk_record_event('fill.created', NEW.workspace_id, NEW.environment, NEW.subaccount_id, 'fill', NEW.id, NULL, to_jsonb(NEW));
  ELSIF OLD.reversed_at IS NULL AND NEW.reversed_at IS NOT NULL THEN
    PERFORM mk_record_event('fill.reversed', NEW.workspace_id, NEW.environment, NEW.subaccount_id, 'fill', NEW.id, NULL, to_jsonb(NEW));
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER fills_events
  AFTER INSERT OR UPDATE OF reversed_at ON fills
  FOR EACH ROW EXECUTE FUNCTION mk_fill_events();

-- Complex orders: placed, then each change of status (complex_order.working, .completed, ...).
CREATE FUNCTION mk_complex_order_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM mk_record_event('complex_order.created', NEW.workspace_id, NEW.environment, NEW.subaccount_id, 'complex_order', NEW.id, NULL, to_jsonb(NEW));
  ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
    PERFORM mk_record_event('complex_order.' || NEW.status::text, NEW.workspace_id, NEW.environment, NEW.subaccount_id, 'complex_order', NEW.id,
                            OLD.status::text, to_jsonb(NEW));
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER complex_orders_events
  AFTER INSERT OR UPDATE OF status ON complex_orders
  FOR EACH ROW EXECUTE FUNCTION mk_complex_order_events();

-- Children of complex orders: sent to their venue, or refused (rejected) or canceled before being sent.
CREATE FUNCTION mk_child_order_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status AND NEW.status IN ('sent', 'rejected', 'canceled') THEN
    PERFORM mk_record_event('complex_order.child_' || NEW.status::text, p.workspace_id, p.environment, p.subaccount_id, 'child_order', NEW.id,
                            OLD.status::text, to_jsonb(NEW))
       FROM complex_orders p WHERE p.id = NEW.complex_order_id;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER child_orders_events
  AFTER UPDATE OF status ON child_orders
  FOR EACH ROW EXECUTE FUNCTION mk_child_order_events();

-- Dead-man's switches: armed (or re-armed), fired, disarmed, and the end of a firing's cancellations.
-- Keep-alives (last_heartbeat_at, expires_at) are no events.
CREATE FUNCTION mk_dead_mans_switch_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  previous text := CASE WHEN TG_OP = 'UPDATE' THEN OLD.state::text END;
BEGIN
  IF TG_OP = 'INSERT' OR NEW.state IS DISTINCT FROM OLD.state OR (NEW.state = 'armed' AND NEW.armed_at IS DISTINCT FROM OLD.armed_at) THEN
    PERFORM mk_record_event('dead_mans_switch.' || NEW.state::text, NEW.workspace_id, NEW.environment, NEW.subaccount_id, 'dead_mans_switch', NEW.id,
                            previous, to_jsonb(NEW));
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.cancel_completed_at IS NOT NULL AND NEW.cancel_completed_at IS DISTINCT FROM OLD.cancel_completed_at THEN
    PERFORM mk_record_event('dead_mans_switch.cancellation_completed', NEW.workspace_id, NEW.environment, NEW.subaccount_id, 'dead_mans_switch', NEW.id,
                            previous, to_jsonb(NEW));
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER dead_mans_switches_events
  AFTER INSERT OR UPDATE OF state, armed_at, cancel_completed_at ON dead_mans_switches
  FOR EACH ROW EXECUTE FUNCTION mk_dead_mans_switch_events();

-- Venue credentials: attached (or replaced) and removed. The snapshot never holds the sealed secret.
CREATE FUNCTION mk_credential_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  row exchange_credentials := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.fingerprint IS NOT DISTINCT FROM OLD.fingerprint AND NEW.environment IS NOT DISTINCT FROM OLD.environment THEN
    RETURN NULL;
  END IF;
  PERFORM mk_record_event(CASE WHEN TG_OP = 'DELETE' THEN 'credential.removed' ELSE 'credential.attached' END,
                          s.workspace_id, s.environment, s.id, 'credential', row.id, NULL,
                          to_jsonb(row) - 'ciphertext' - 'kek_id')
     FROM subaccounts s WHERE s.id = row.subaccount_id;
  RETURN NULL;
END $$;

CREATE TRIGGER exchange_credentials_events
  AFTER INSERT OR DELETE OR UPDATE OF fingerprint, environment ON exchange_credentials
  FOR EACH ROW EXECUTE FUNCTION mk_credential_events();

-- The workspace's kill switch: one event in each environment (it halts both).
CREATE FUNCTION mk_kill_switch_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.trading_halted IS DISTINCT FROM OLD.trading_halted THEN
    PERFORM mk_record_event(CASE WHEN NEW.trading_halted THEN 'kill_switch.engaged' ELSE 'kill_switch.released' END,
                            NEW.id, env, NULL, 'workspace', NEW.id, NULL, to_jsonb(NEW))
       FROM unnest(enum_range(NULL::"Environment")) env;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER workspaces_kill_switch_events
  AFTER UPDATE OF trading_halted ON workspaces
  FOR EACH ROW EXECUTE FUNCTION mk_kill_switch_events();

-- Risk limits: every change (the row's insert is the subaccount's creation, no event).
CREATE FUNCTION mk_risk_limits_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM mk_record_event('risk_limits.updated', s.workspace_id, s.environment, s.id, 'risk_limits', s.id, NULL, to_jsonb(NEW))
     FROM subaccounts s WHERE s.id = NEW.subaccount_id;
  RETURN NULL;
END $$;

CREATE TRIGGER risk_limits_events
  AFTER UPDATE ON risk_limits
  FOR EACH ROW EXECUTE FUNCTION mk_risk_limits_events();

-- The sequencer: numbers the events not numbered yet, in insert order, after every event numbered
-- before (one sequencer at a time, by the transaction's advisory lock, so numbers become visible in
-- order: whoever has read number n has every number below it). Answers the last number given per
-- workspace and environment, for the notifications. Nothing to do is answered without the lock.
CREATE FUNCTION mk_sequence_events(batch integer)
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
      RETURNING e.workspace_id, e.environment, e.seq
    )
    SELECT n.workspace_id, n.environment, max(n.seq) FROM numbered n GROUP BY n.workspace_id, n.environment;
END $$;
