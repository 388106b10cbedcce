-- Amending orders (issue 30): the amend sent to the venue whose outcome is not recorded yet.
-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "pending_amendment" JSONB;

-- order.amended (docs/events.md): an amend's outcome recorded (pending_amendment cleared) with other
-- terms than the order had before it; a refused amend (the terms restored) is no event.
CREATE OR REPLACE FUNCTION mk_order_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kind text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM mk_record_event('order.withdrawn', OLD.workspace_id, OLD.environment, OLD.subaccount_id, 'order', OLD.id, OLD.status::text, to_jsonb(OLD));
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.pending_amendment IS NOT NULL AND NEW.pending_amendment IS NULL
     AND (NEW.price IS DISTINCT FROM (OLD.pending_amendment->'from'->>'price')::numeric
          OR NEW.quantity IS DISTINCT FROM (OLD.pending_amendment->'from'->>'quantity')::numeric) THEN
    PERFORM mk_record_event('order.amended', NEW.workspace_id, NEW.environment, NEW.subaccount_id, 'order', NEW.id, NULL, to_jsonb(NEW));
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

DROP TRIGGER orders_events ON orders;
CREATE TRIGGER orders_events
  AFTER INSERT OR DELETE OR UPDATE OF status, filled_quantity, pending_amendment ON orders
  FOR EACH ROW EXECUTE FUNCTION mk_order_events();
