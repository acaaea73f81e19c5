-- The tagger tags each tenant's oldest untagged due job first (docs/fair-share.md, decision D27),
-- so a quiet tenant's job is tagged in the next pass however large another tenant's untagged
-- flood. jobs_fair_heads is the untagged part of the lane by tenant (claim_tag NULL first, then
-- tenant_id, then run_at): the tagger walks it one index dive per tenant (fair-heads-select.sql).
-- heads_after is where the lane's next walk starts when the last one stopped at its bound: the
-- walk goes round the lane's tenants pass after pass. Part of the lane's clock row, so written by
-- the tagger that holds it.
ALTER TABLE jobs
  ADD INDEX jobs_fair_heads (claim_lane, claim_tag, tenant_id, run_at);

ALTER TABLE fair_clocks
  ADD COLUMN heads_after BINARY(16) NULL;
