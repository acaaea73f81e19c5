{{/* Names and labels shared by every template. */}}
{{- define "dsched.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end }}

{{- define "dsched.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "dsched.labels" -}}
{{ include "dsched.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end }}

{{- define "dsched.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end }}

{{- define "dsched.secretName" -}}
{{- if .Values.secret.create -}}
{{ include "dsched.fullname" . }}-credentials
{{- else -}}
{{ required "secret.existingSecret: name the Secret holding DATABASE_URL, DSCHED_ADMIN_TOKEN and DSCHED_SECRETS_KEY, or set secret.create" .Values.secret.existingSecret }}
{{- end -}}
{{- end }}

{{/*
The six services: values key, name, HTTP port and the variable that sets it. APIs serve their
routes and /healthz, /readyz, /metrics on one port; workers serve the last three on METRICS_PORT.
*/}}
{{- define "dsched.components" -}}
taskApi: { name: task-api, port: 8080, portVariable: TASK_API_PORT, portName: http, api: true }
jobApi: { name: job-api, port: 8081, portVariable: JOB_API_PORT, portName: http, api: true }
scheduler: { name: scheduler, port: 9101, portVariable: METRICS_PORT, portName: metrics, api: false }
executor: { name: executor, port: 9102, portVariable: METRICS_PORT, portName: metrics, api: false }
reconciler: { name: reconciler, port: 9103, portVariable: METRICS_PORT, portName: metrics, api: false }
archiver: { name: archiver, port: 9104, portVariable: METRICS_PORT, portName: metrics, api: false }
{{- end }}

{{/* Non-secret configuration: the ConfigMap's data, and the migration Job's env (a pre-install
hook runs before the ConfigMap exists). */}}
{{- define "dsched.configData" -}}
LOG_LEVEL: {{ .Values.config.logLevel | quote }}
SHUTDOWN_GRACE_MS: {{ .Values.config.shutdownGraceMs | quote }}
CASSANDRA_CONTACT_POINTS: {{ .Values.config.cassandra.contactPoints | quote }}
CASSANDRA_LOCAL_DC: {{ .Values.config.cassandra.localDc | quote }}
CASSANDRA_KEYSPACE: {{ .Values.config.cassandra.keyspace | quote }}
CASSANDRA_WRITE_CONSISTENCY: {{ .Values.config.cassandra.writeConsistency | quote }}
CASSANDRA_READ_CONSISTENCY: {{ .Values.config.cassandra.readConsistency | quote }}
SCHEDULER_PARTITIONS: {{ .Values.config.schedulerPartitions | quote }}
KEY_ROTATION_GRACE_S: {{ .Values.config.keyRotationGraceS | quote }}
{{- with .Values.config.executorAllowedTargets }}
EXECUTOR_ALLOWED_TARGETS: {{ . | quote }}
{{- end }}
{{- with .Values.config.trustProxy }}
TRUST_PROXY: {{ . | quote }}
{{- end }}
{{- with .Values.config.consoleTaskApiUrl }}
CONSOLE_TASK_API_URL: {{ . | quote }}
{{- end }}
{{- with .Values.config.taskApiCorsOrigins }}
TASK_API_CORS_ORIGINS: {{ . | quote }}
{{- end }}
{{- with .Values.config.taskApiPublicUrl }}
TASK_API_PUBLIC_URL: {{ . | quote }}
{{- end }}
{{- with .Values.tracing.otlpEndpoint }}
OTEL_EXPORTER_OTLP_ENDPOINT: {{ . | quote }}
OTEL_EXPORTER_OTLP_PROTOCOL: {{ $.Values.tracing.protocol | quote }}
OTEL_TRACES_SAMPLER: {{ $.Values.tracing.sampler | quote }}
OTEL_TRACES_SAMPLER_ARG: {{ $.Values.tracing.samplerRatio | quote }}
{{- with $.Values.tracing.resourceAttributes }}
OTEL_RESOURCE_ATTRIBUTES: {{ . | quote }}
{{- end }}
{{- end }}
{{- with .Values.tracing.consoleTraceUrl }}
CONSOLE_TRACE_URL: {{ . | quote }}
{{- end }}
{{- range $name, $value := .Values.config.extraEnv }}
{{ $name }}: {{ $value | quote }}
{{- end }}
{{- end }}

{{/* Pod and container hardening shared by the Deployments and the migration Job. */}}
{{- define "dsched.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
fsGroup: 1000
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{- define "dsched.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop: [ALL]
{{- end }}

{{/*
Seconds Kubernetes waits after SIGTERM: the services' own grace (SHUTDOWN_GRACE_MS), the 5 s
their hard-exit timer adds, and the preStop pause of the APIs, so a pod is never killed while it
still gives work back.
*/}}
{{- define "dsched.terminationGracePeriodSeconds" -}}
{{- add (div (add .Values.config.shutdownGraceMs 999) 1000) 5 .Values.preStopSleepSeconds -}}
{{- end }}

{{- define "dsched.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{ default (include "dsched.fullname" .) .Values.serviceAccount.name }}
{{- else -}}
{{ default "default" .Values.serviceAccount.name }}
{{- end -}}
{{- end }}
