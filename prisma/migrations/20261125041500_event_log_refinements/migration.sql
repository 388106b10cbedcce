-- Three writers of the event log, refined after review (docs/events.md):
-- * a credential replaced by one with the same fingerprint and environment (Polymarket: only the
--   API credentials changed) is still credential.attached (its created_at is new);
-- * risk_limits.updated only when a limit changed, not for an update that set the same values;
-- * complex_order.child_settled has no previous status: the child's own status did not change
--   (the order's event, just before it, says what the order's was).

CREATE OR REPLACE FUNCTION mk_credential_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  row exchange_credentials := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.fingerprint IS NOT DISTINCT FROM OLD.fingerprint AND NEW.environment IS NOT DISTINCT FROM OLD.environment
     AND NEW.created_at IS NOT DISTINCT FROM OLD.created_at THEN
    RETURN NULL;
  END IF;
  PERFORM mk_record_event(CASE WHEN TG_OP = 'DELETE' THEN 'credential.removed' ELSE 'credential.attached' END,
                          s.workspace_id, s.environment, s.id, 'credential', row.id, NULL,
                          to_jsonb(row) - 'ciphertext' - 'kek_id')
     FROM subaccounts s WHERE s.id = row.subaccount_id;
  RETURN NULL;
END $$;

DROP TRIGGER exchange_credentials_events ON exchange_credentials;
CREATE TRIGGER exchange_credentials_events
  AFTER INSERT OR DELETE OR UPDATE OF fingerprint, environment, created_at ON exchange_credentials
  FOR EACH ROW EXECUTE FUNCTION mk_credential_events();

CREATE OR REPLACE FUNCTION mk_risk_limits_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (to_jsonb(NEW) - 'updated_at') = (to_jsonb(OLD) - 'updated_at') THEN
    RETURN NULL;
  END IF;
  PERFORM mk_record_event('risk_limits.updated', s.workspace_id, s.environment, s.id, 'risk_limits', s.id, NULL, to_jsonb(NEW))
     FROM subaccounts s WHERE s.id = NEW.subaccount_id;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION mk_order_events() RETURNS trigger LANGUAGE plpgsql AS $$
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
                            NULL, to_jsonb(c))
       FROM child_orders c WHERE c.order_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;
