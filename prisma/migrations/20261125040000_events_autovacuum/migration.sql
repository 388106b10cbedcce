-- Numbering an event updates its row, leaving the unnumbered version behind in the table and its
-- indexes until VACUUM, and the sequencer's search for unnumbered events (seq IS NULL) walks those
-- dead entries: with the default threshold (20% of the table) a long log would pile up hundreds of
-- thousands of them between vacuums, and a sequencer round would outlast its interval
-- (bench/README.md, "Event stream"). Vacuum the log after every 10,000 updated rows instead.
ALTER TABLE "events" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000, autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 10000);
