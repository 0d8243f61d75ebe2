// The types the schema is generated from: what `@grafana/schema` exports for a dashboard, and
// the Elasticsearch data source's query model (panel and annotation targets).
export type { Dashboard } from '@grafana/schema';
export type { ElasticsearchDataQuery } from '@grafana/schema/dist/types/raw/composable/elasticsearch/dataquery/x/ElasticsearchDataQuery_types.gen';
