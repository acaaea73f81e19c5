-- Two changes of issue 15 (its second part): the tagger's per-tenant heads, and flow control on
-- workflow nodes.
--
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

-- Flow control on workflow nodes (docs/workflows.md): a node may carry flowControl like a task;
-- its job copies the key and limits when it is made, and the claim enforces them as for a task's.
ALTER TABLE workflow_nodes
  ADD COLUMN flow_key VARCHAR(100) NULL,
  ADD COLUMN flow_parallelism INT UNSIGNED NULL,
  ADD COLUMN flow_rate DECIMAL(12,3) NULL;
