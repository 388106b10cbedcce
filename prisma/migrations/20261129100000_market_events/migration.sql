-- A market's working orders and its holders, read when it closes, settles and tells the workspaces concerned.
-- CreateIndex
CREATE INDEX "orders_market_id_status_idx" ON "orders"("market_id", "status");

-- CreateIndex
CREATE INDEX "positions_market_id_idx" ON "positions"("market_id");

-- Markets: market.closed, market.determined and market.settled (docs/events.md), one event per
-- workspace concerned, written in the transaction that changes the status: the workspace of a test
-- helper's market, and every workspace holding contracts in it or with orders working on it (a
-- market is read by many workspaces; those with nothing in it are not told). Its snapshot is the
-- market's row without its search vector.
CREATE FUNCTION mk_market_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  concerned record;
BEGIN
  IF NEW.status IS NOT DISTINCT FROM OLD.status OR NEW.status::text NOT IN ('closed', 'determined', 'settled') THEN
    RETURN NULL;
  END IF;
  FOR concerned IN
    SELECT NEW.workspace_id AS workspace_id, NEW.environment AS environment WHERE NEW.workspace_id IS NOT NULL
    UNION
    SELECT s.workspace_id, s.environment
      FROM positions p JOIN subaccounts s ON s.id = p.subaccount_id
     WHERE p.market_id = NEW.id AND p.quantity > 0
    UNION
    SELECT o.workspace_id, o.environment
      FROM orders o
     WHERE o.market_id = NEW.id AND o.status IN ('pending', 'open', 'partially_filled', 'unknown')
  LOOP
    PERFORM mk_record_event('market.' || NEW.status::text, concerned.workspace_id, concerned.environment, NULL, 'market', NEW.id,
                            OLD.status::text, to_jsonb(NEW) - 'search_vector');
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER markets_events
  AFTER UPDATE OF status ON markets
  FOR EACH ROW EXECUTE FUNCTION mk_market_events();
