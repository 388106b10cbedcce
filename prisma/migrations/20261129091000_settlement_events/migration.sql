-- Settlements: one settlement.created event per settlement (docs/events.md), written in the
-- settlement's own transaction like every event.
CREATE FUNCTION mk_settlement_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM mk_record_event('settlement.created', NEW.workspace_id, NEW.environment, NEW.subaccount_id, 'settlement', NEW.id, NULL, to_jsonb(NEW));
  RETURN NULL;
END $$;

CREATE TRIGGER settlements_events
  AFTER INSERT ON settlements
  FOR EACH ROW EXECUTE FUNCTION mk_settlement_events();
