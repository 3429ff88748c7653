{{/* The chart's name and the objects' full name (the release name, with the chart's name unless it holds it). */}}
{{- define "avalanche-exporter.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "avalanche-exporter.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 42 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 42 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 42 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "avalanche-exporter.selectorLabels" -}}
app.kubernetes.io/name: {{ include "avalanche-exporter.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "avalanche-exporter.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "avalanche-exporter.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "avalanche-exporter.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "avalanche-exporter.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "avalanche-exporter.configSecret" -}}
{{- default (printf "%s-config" (include "avalanche-exporter.fullname" .)) .Values.existingConfigSecret }}
{{- end }}

{{/* Whether a web configuration is mounted, and from which Secret. */}}
{{- define "avalanche-exporter.webConfigSecret" -}}
{{- if .Values.webConfig.existingSecret }}
{{- .Values.webConfig.existingSecret }}
{{- else if .Values.webConfig.config }}
{{- printf "%s-web-config" (include "avalanche-exporter.fullname" .) }}
{{- end }}
{{- end }}

{{/* A target's name as the exporter gives it: `name`, or host:port of its URL (port 80 or 443 by scheme). */}}
{{- define "avalanche-exporter.targetName" -}}
{{- if .name }}
{{- .name }}
{{- else }}
{{- $u := urlParse .url }}
{{- if contains ":" $u.host }}
{{- $u.host }}
{{- else }}
{{- printf "%s:%s" $u.host (ternary "443" "80" (eq $u.scheme "https")) }}
{{- end }}
{{- end }}
{{- end }}
