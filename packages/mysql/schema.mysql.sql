CREATE TABLE `fair_clocks` (
  `partition` smallint unsigned NOT NULL,
  `lane` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `vt` bigint unsigned NOT NULL DEFAULT '0',
  `max_tag` bigint unsigned NOT NULL DEFAULT '0',
  `heads_after` binary(16) DEFAULT NULL,
  PRIMARY KEY (`partition`,`lane`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE `flow_holds` (
  `job_id` binary(16) NOT NULL,
  `attempt` int unsigned NOT NULL,
  `tenant_id` binary(16) NOT NULL,
  `flow_key` varchar(100) COLLATE utf8mb4_bin NOT NULL,
  `expires_at` datetime(3) NOT NULL,
  PRIMARY KEY (`job_id`),
  KEY `flow_holds_key` (`tenant_id`,`flow_key`,`expires_at`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE `flow_keys` (
  `tenant_id` binary(16) NOT NULL,
  `flow_key` varchar(100) COLLATE utf8mb4_bin NOT NULL,
  `tat` datetime(3) DEFAULT NULL,
  PRIMARY KEY (`tenant_id`,`flow_key`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE `job_attempts` (
  `job_id` binary(16) NOT NULL,
  `attempt` int unsigned NOT NULL,
  `executor` varchar(128) COLLATE utf8mb4_bin NOT NULL,
  `started_at` datetime(3) NOT NULL,
  `finished_at` datetime(3) DEFAULT NULL,
  `status` smallint DEFAULT NULL,
  `error_class` varchar(32) CHARACTER SET ascii COLLATE ascii_bin DEFAULT NULL,
  `error` varchar(1000) COLLATE utf8mb4_bin DEFAULT NULL,
  `duration_ms` int unsigned DEFAULT NULL,
  `partition` smallint unsigned NOT NULL,
  PRIMARY KEY (`job_id`,`attempt`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE `job_tags` (
  `tenant_id` binary(16) NOT NULL,
  `tag` varchar(193) COLLATE utf8mb4_bin NOT NULL,
  `scheduled_for` datetime(3) NOT NULL,
  `job_id` binary(16) NOT NULL,
  `partition` smallint unsigned NOT NULL,
  PRIMARY KEY (`tenant_id`,`tag`,`scheduled_for`,`job_id`),
  KEY `job_tags_by_job` (`job_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE `jobs` (
  `id` binary(16) NOT NULL,
  `partition` smallint unsigned NOT NULL,
  `tenant_id` binary(16) NOT NULL,
  `task_id` binary(16) DEFAULT NULL,
  `occurrence` varchar(80) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `kind` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `workflow_id` binary(16) DEFAULT NULL,
  `node_id` varchar(100) COLLATE utf8mb4_bin DEFAULT NULL,
  `scheduled_for` datetime(3) NOT NULL,
  `priority` tinyint unsigned NOT NULL,
  `lane` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `claim_lane` varchar(16) CHARACTER SET ascii COLLATE ascii_bin GENERATED ALWAYS AS ((case when ((`state` = _ascii'pending') and (`held` = 0)) then `lane` end)) STORED,
  `state` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `finished_state` varchar(16) CHARACTER SET ascii COLLATE ascii_bin GENERATED ALWAYS AS ((case when (`state` in (_ascii'succeeded',_ascii'dead',_ascii'cancelled')) then `state` end)) STORED,
  `attempt` int unsigned NOT NULL DEFAULT '0',
  `max_attempts` int unsigned NOT NULL,
  `attempt_group` int unsigned NOT NULL DEFAULT '1',
  `run_at` datetime(3) NOT NULL,
  `claimed_by` varchar(128) COLLATE utf8mb4_bin DEFAULT NULL,
  `claimed_at` datetime(3) DEFAULT NULL,
  `lease_expires_at` datetime(3) DEFAULT NULL,
  `deadline_at` datetime(3) DEFAULT NULL,
  `cancel_requested` tinyint unsigned NOT NULL DEFAULT '0',
  `target` json NOT NULL,
  `retry` json NOT NULL,
  `last_status` smallint DEFAULT NULL,
  `last_error` varchar(1000) COLLATE utf8mb4_bin DEFAULT NULL,
  `output` json DEFAULT NULL,
  `progress` json DEFAULT NULL,
  `started_at` datetime(3) DEFAULT NULL,
  `finished_at` datetime(3) DEFAULT NULL,
  `created_at` datetime(3) NOT NULL,
  `updated_at` datetime(3) NOT NULL,
  `callbacks` json DEFAULT NULL,
  `counts_failures` tinyint unsigned NOT NULL DEFAULT '0',
  `fair_tag` bigint unsigned DEFAULT NULL,
  `fair_tag_attempt` int unsigned DEFAULT NULL,
  `claim_tag` bigint unsigned GENERATED ALWAYS AS ((case when ((`state` = _ascii'pending') and (`fair_tag_attempt` = `attempt`)) then `fair_tag` end)) STORED,
  `flow_key` varchar(100) COLLATE utf8mb4_bin DEFAULT NULL,
  `flow_parallelism` int unsigned DEFAULT NULL,
  `flow_rate` decimal(12,3) DEFAULT NULL,
  `flow_running` varchar(100) COLLATE utf8mb4_bin GENERATED ALWAYS AS ((case when (`state` = _ascii'running') then `flow_key` end)) STORED,
  `trace_context` binary(25) DEFAULT NULL,
  `tags` json DEFAULT NULL,
  `held` tinyint unsigned NOT NULL DEFAULT '0',
  PRIMARY KEY (`id`),
  UNIQUE KEY `jobs_occurrence` (`task_id`,`occurrence`),
  KEY `jobs_by_task` (`task_id`,`scheduled_for`),
  KEY `jobs_by_tenant_time` (`tenant_id`,`scheduled_for`),
  KEY `jobs_by_tenant_finished` (`tenant_id`,`finished_state`,`scheduled_for`),
  KEY `jobs_flow_running` (`tenant_id`,`flow_running`),
  KEY `jobs_claim` (`claim_lane`,`priority`,`run_at`,`id`,`partition`),
  KEY `jobs_fair` (`claim_lane`,`priority`,`claim_tag`,`run_at`,`id`,`partition`),
  KEY `jobs_fair_heads` (`claim_lane`,`claim_tag`,`tenant_id`,`run_at`,`id`,`partition`),
  KEY `jobs_by_state_lease` (`state`,`lease_expires_at`,`id`,`partition`),
  KEY `jobs_finished` (`finished_state`,`finished_at`,`id`,`partition`),
  KEY `jobs_deadline` (`deadline_at`,`id`,`partition`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE `leases` (
  `name` varchar(100) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `holder` varchar(128) COLLATE utf8mb4_bin DEFAULT NULL,
  `token` bigint unsigned NOT NULL DEFAULT '0',
  `expires_at` datetime(3) NOT NULL,
  PRIMARY KEY (`name`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE `occurrence_skips` (
  `task_id` binary(16) NOT NULL,
  `skipped_from` datetime(3) NOT NULL,
  `skipped_to` datetime(3) NOT NULL,
  `reason` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `created_at` datetime(3) NOT NULL,
  `partition` smallint unsigned NOT NULL,
  PRIMARY KEY (`task_id`,`skipped_from`,`reason`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE `operations` (
  `id` binary(16) NOT NULL,
  `tenant_id` binary(16) NOT NULL,
  `action` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `filter` json NOT NULL,
  `state` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `cancel_requested` tinyint unsigned NOT NULL DEFAULT '0',
  `matched` int unsigned NOT NULL,
  `done` int unsigned NOT NULL DEFAULT '0',
  `failed` int unsigned NOT NULL DEFAULT '0',
  `batches` int unsigned NOT NULL DEFAULT '0',
  `cursor_at` datetime(3) DEFAULT NULL,
  `cursor_id` binary(16) DEFAULT NULL,
  `lease_owner` varchar(160) COLLATE utf8mb4_bin DEFAULT NULL,
  `lease_expires_at` datetime(3) DEFAULT NULL,
  `error` varchar(1000) COLLATE utf8mb4_bin DEFAULT NULL,
  `created_at` datetime(3) NOT NULL,
  `updated_at` datetime(3) NOT NULL,
  `finished_at` datetime(3) DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `operations_by_tenant` (`tenant_id`,`id`),
  KEY `operations_running` (`state`,`lease_expires_at`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE `task_tags` (
  `tenant_id` binary(16) NOT NULL,
  `tag` varchar(193) COLLATE utf8mb4_bin NOT NULL,
  `task_id` binary(16) NOT NULL,
  PRIMARY KEY (`tenant_id`,`tag`,`task_id`),
  KEY `task_tags_by_task` (`task_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE `tasks` (
  `id` binary(16) NOT NULL,
  `tenant_id` binary(16) NOT NULL,
  `name` varchar(200) COLLATE utf8mb4_bin NOT NULL,
  `schedule` json NOT NULL,
  `target` json NOT NULL,
  `priority` tinyint unsigned NOT NULL,
  `lane` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `retry` json NOT NULL,
  `max_attempts` int unsigned GENERATED ALWAYS AS (cast(json_unquote(json_extract(`retry`,_utf8mb4'$.maxAttempts')) as unsigned)) STORED,
  `misfire_policy` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `overlap_policy` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `metadata` json DEFAULT NULL,
  `state` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `next_fire_at` datetime(3) DEFAULT NULL,
  `partition` smallint unsigned NOT NULL,
  `version` int unsigned NOT NULL DEFAULT '1',
  `created_at` datetime(3) NOT NULL,
  `updated_at` datetime(3) NOT NULL,
  `jitter_s` int unsigned NOT NULL DEFAULT '0',
  `callbacks` json DEFAULT NULL,
  `pause_after_failures` smallint unsigned DEFAULT NULL,
  `failure_streak` int unsigned NOT NULL DEFAULT '0',
  `paused_reason` varchar(200) COLLATE utf8mb4_bin DEFAULT NULL,
  `flow_control` json DEFAULT NULL,
  `workflow` longtext COLLATE utf8mb4_bin,
  `task_key` varchar(128) CHARACTER SET ascii COLLATE ascii_bin DEFAULT NULL,
  `live_key` varchar(128) CHARACTER SET ascii COLLATE ascii_bin GENERATED ALWAYS AS ((case when (`state` <> _ascii'deleted') then `task_key` end)) STORED,
  `tags` json DEFAULT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `tasks_live_key` (`tenant_id`,`live_key`),
  KEY `tasks_by_tenant` (`tenant_id`,`id`),
  KEY `tasks_due` (`state`,`priority`,`partition`,`next_fire_at`),
  CONSTRAINT `tasks_chk_1` CHECK (((`workflow` is null) or json_valid(`workflow`)))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE `tenant_api_keys` (
  `key_hash` binary(32) NOT NULL,
  `tenant_id` binary(16) NOT NULL,
  `key_prefix` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `created_at` datetime(3) NOT NULL,
  `expires_at` datetime(3) DEFAULT NULL,
  PRIMARY KEY (`key_hash`),
  KEY `tenant_api_keys_by_tenant` (`tenant_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE `tenant_fair_clocks` (
  `partition` smallint unsigned NOT NULL,
  `tenant_id` binary(16) NOT NULL,
  `lane` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `vt` bigint unsigned NOT NULL DEFAULT '0',
  PRIMARY KEY (`partition`,`lane`,`tenant_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE `tenant_rate_buckets` (
  `tenant_id` binary(16) NOT NULL,
  `tokens` double NOT NULL,
  `refilled_at` datetime(3) NOT NULL,
  PRIMARY KEY (`tenant_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE `tenant_slots` (
  `tenant_id` binary(16) NOT NULL,
  `slot` int unsigned NOT NULL,
  `job_id` binary(16) DEFAULT NULL,
  `attempt` int unsigned DEFAULT NULL,
  `expires_at` datetime(3) DEFAULT NULL,
  PRIMARY KEY (`tenant_id`,`slot`),
  KEY `tenant_slots_free` (`tenant_id`,`expires_at`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE `tenants` (
  `id` binary(16) NOT NULL,
  `name` varchar(200) COLLATE utf8mb4_bin NOT NULL,
  `signing_secret` varchar(200) COLLATE utf8mb4_bin NOT NULL,
  `signing_secret_key_id` varchar(32) COLLATE utf8mb4_bin DEFAULT NULL,
  `max_tasks` int unsigned DEFAULT NULL,
  `max_concurrency` int unsigned DEFAULT NULL,
  `rate_limit_per_second` int unsigned DEFAULT NULL,
  `weight` decimal(7,3) NOT NULL DEFAULT '1.000',
  `created_at` datetime(3) NOT NULL,
  `updated_at` datetime(3) NOT NULL,
  `task_count` int unsigned NOT NULL DEFAULT '0',
  PRIMARY KEY (`id`),
  KEY `tenants_secret_key` (`signing_secret_key_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE `workflow_edges` (
  `workflow_id` binary(16) NOT NULL,
  `parent_id` varchar(100) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `child_id` varchar(100) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `partition` smallint unsigned NOT NULL,
  PRIMARY KEY (`workflow_id`,`parent_id`,`child_id`),
  KEY `workflow_edges_by_child` (`workflow_id`,`child_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE `workflow_node_outputs` (
  `workflow_id` binary(16) NOT NULL,
  `node_id` varchar(100) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `attempt` int unsigned NOT NULL,
  `output` longtext COLLATE utf8mb4_bin NOT NULL,
  `created_at` datetime(3) NOT NULL,
  `partition` smallint unsigned NOT NULL,
  PRIMARY KEY (`workflow_id`,`node_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE `workflow_nodes` (
  `workflow_id` binary(16) NOT NULL,
  `node_id` varchar(100) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `job_id` binary(16) NOT NULL,
  `state` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `trigger_rule` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `parent_count` int unsigned NOT NULL,
  `unfinished_parents` int unsigned NOT NULL,
  `failed_parents` int unsigned NOT NULL DEFAULT '0',
  `skipped_parents` int unsigned NOT NULL DEFAULT '0',
  `attempt` int unsigned NOT NULL DEFAULT '0',
  `priority` tinyint unsigned NOT NULL,
  `lane` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `max_attempts` int unsigned NOT NULL,
  `target` json NOT NULL,
  `retry` json NOT NULL,
  `step_token` bigint unsigned DEFAULT NULL,
  `walk_pending` tinyint unsigned DEFAULT NULL,
  `finished_at` datetime(3) DEFAULT NULL,
  `inputs` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'none',
  `flow_key` varchar(100) COLLATE utf8mb4_bin DEFAULT NULL,
  `flow_parallelism` int unsigned DEFAULT NULL,
  `flow_rate` decimal(12,3) DEFAULT NULL,
  `child_count` int unsigned NOT NULL DEFAULT '0',
  `walk_after` varchar(100) CHARACTER SET ascii COLLATE ascii_bin DEFAULT NULL,
  `wake_delay_ms` bigint unsigned DEFAULT NULL,
  `wake_at` datetime(3) DEFAULT NULL,
  `signal_hash` binary(32) DEFAULT NULL,
  `map_over` varchar(100) CHARACTER SET ascii COLLATE ascii_bin DEFAULT NULL,
  `map_max_items` int unsigned DEFAULT NULL,
  `map_count` int unsigned DEFAULT NULL,
  `map_made` int unsigned DEFAULT NULL,
  `partition` smallint unsigned NOT NULL,
  PRIMARY KEY (`workflow_id`,`node_id`),
  KEY `workflow_nodes_by_state` (`workflow_id`,`state`),
  KEY `workflow_nodes_unwalked` (`walk_pending`,`workflow_id`,`node_id`,`partition`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE `workflow_tags` (
  `tenant_id` binary(16) NOT NULL,
  `tag` varchar(193) COLLATE utf8mb4_bin NOT NULL,
  `created_at` datetime(3) NOT NULL,
  `workflow_id` binary(16) NOT NULL,
  `partition` smallint unsigned NOT NULL,
  PRIMARY KEY (`tenant_id`,`tag`,`created_at`,`workflow_id`),
  KEY `workflow_tags_by_workflow` (`workflow_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE `workflows` (
  `id` binary(16) NOT NULL,
  `partition` smallint unsigned NOT NULL,
  `tenant_id` binary(16) NOT NULL,
  `name` varchar(200) COLLATE utf8mb4_bin NOT NULL,
  `state` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `paused` tinyint unsigned NOT NULL DEFAULT '0',
  `failure_policy` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `max_parallel` int unsigned DEFAULT NULL,
  `node_count` int unsigned NOT NULL,
  `edge_count` int unsigned NOT NULL,
  `deadline_at` datetime(3) DEFAULT NULL,
  `metadata` json DEFAULT NULL,
  `created_at` datetime(3) NOT NULL,
  `updated_at` datetime(3) NOT NULL,
  `finished_at` datetime(3) DEFAULT NULL,
  `archived_at` datetime(3) DEFAULT NULL,
  `trace_context` binary(25) DEFAULT NULL,
  `tags` json DEFAULT NULL,
  `quota_release` tinyint unsigned NOT NULL DEFAULT '0',
  PRIMARY KEY (`id`),
  KEY `workflows_by_tenant` (`tenant_id`,`id`),
  KEY `workflows_by_tenant_created` (`tenant_id`,`created_at`,`id`),
  KEY `workflows_by_state` (`state`,`deadline_at`,`id`,`partition`),
  KEY `workflows_finished` (`state`,`finished_at`,`id`,`partition`),
  KEY `workflows_quota_release` (`quota_release`,`partition`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
