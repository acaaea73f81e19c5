-- Weighted fair share between tenants (docs/decisions.md D23, docs/fair-share.md).
-- A job is given a start tag when it is due, by the claimer of its lane (fair-tags.ts), so a job
-- materialised ahead of its due time takes no place in the order until then. The tag holds for
-- one attempt: claim_tag is the tag while the job is pending in the attempt it was given for, NULL
-- otherwise, so a retry, a redrive or a released claim (which all follow a claim, and so a new
-- attempt number) is untagged again without those paths knowing of tags.
-- jobs_fair is the fair claim's index: pending tagged jobs in (priority, tag) order; untagged
-- (NULL) ones sort first and are the tagger's range, below the claim's.
ALTER TABLE tenants
  ADD COLUMN weight DECIMAL(7,3) NOT NULL DEFAULT 1.000 AFTER rate_limit_per_second;

ALTER TABLE jobs
  ADD COLUMN fair_tag BIGINT UNSIGNED NULL,
  ADD COLUMN fair_tag_attempt INT UNSIGNED NULL,
  ADD COLUMN claim_tag BIGINT UNSIGNED GENERATED ALWAYS AS
    (CASE WHEN state = 'pending' AND fair_tag_attempt = attempt THEN fair_tag END) STORED,
  ADD INDEX jobs_fair (claim_lane, priority, claim_tag, run_at);

-- The fleet's virtual time per lane (V), and the largest tag handed out. The claimer that tags a
-- lane's due jobs holds this row (SKIP LOCKED: one tagger per lane at a time, the others go on
-- claiming), which also serialises every write of the lane's tenant clocks.
CREATE TABLE fair_clocks (
  lane VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  vt BIGINT UNSIGNED NOT NULL DEFAULT 0,
  max_tag BIGINT UNSIGNED NOT NULL DEFAULT 0,
  PRIMARY KEY (lane)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

INSERT INTO fair_clocks (lane) VALUES ('critical'), ('default'), ('long');

-- Each tenant's finish tag per lane: where its next job starts unless the lane's V is ahead.
CREATE TABLE tenant_fair_clocks (
  tenant_id BINARY(16) NOT NULL,
  lane VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  vt BIGINT UNSIGNED NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, lane)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
