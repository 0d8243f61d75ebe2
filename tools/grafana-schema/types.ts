// The types the schema is generated from: what `@grafana/schema` exports for a dashboard, the
// Elasticsearch data source's query model (panel and annotation targets), and the options
// and custom field config of the panel plugins whose types it has (keyed by plugin id).
export type { Dashboard } from '@grafana/schema';
export type { ElasticsearchDataQuery } from '@grafana/schema/dist/types/raw/composable/elasticsearch/dataquery/x/ElasticsearchDataQuery_types.gen';
import type * as timeseries from '@grafana/schema/dist/types/raw/composable/timeseries/panelcfg/x/TimeSeriesPanelCfg_types.gen';
import type * as heatmap from '@grafana/schema/dist/types/raw/composable/heatmap/panelcfg/x/HeatmapPanelCfg_types.gen';
import type * as table from '@grafana/schema/dist/types/raw/composable/table/panelcfg/x/TablePanelCfg_types.gen';
import type * as stat from '@grafana/schema/dist/types/raw/composable/stat/panelcfg/x/StatPanelCfg_types.gen';
import type * as xychart from '@grafana/schema/dist/types/raw/composable/xychart/panelcfg/x/XYChartPanelCfg_types.gen';
import type * as barchart from '@grafana/schema/dist/types/raw/composable/barchart/panelcfg/x/BarChartPanelCfg_types.gen';
import type * as bargauge from '@grafana/schema/dist/types/raw/composable/bargauge/panelcfg/x/BarGaugePanelCfg_types.gen';
import type * as gauge from '@grafana/schema/dist/types/raw/composable/gauge/panelcfg/x/GaugePanelCfg_types.gen';
import type * as text from '@grafana/schema/dist/types/raw/composable/text/panelcfg/x/TextPanelCfg_types.gen';
import type * as histogram from '@grafana/schema/dist/types/raw/composable/histogram/panelcfg/x/HistogramPanelCfg_types.gen';
import type * as piechart from '@grafana/schema/dist/types/raw/composable/piechart/panelcfg/x/PieChartPanelCfg_types.gen';
import type * as statetimeline from '@grafana/schema/dist/types/raw/composable/statetimeline/panelcfg/x/StateTimelinePanelCfg_types.gen';
import type * as statushistory from '@grafana/schema/dist/types/raw/composable/statushistory/panelcfg/x/StatusHistoryPanelCfg_types.gen';
import type * as trend from '@grafana/schema/dist/types/raw/composable/trend/panelcfg/x/TrendPanelCfg_types.gen';

export interface PanelConfigs {
  'timeseries': { options: timeseries.Options; custom: timeseries.FieldConfig };
  'heatmap': { options: heatmap.Options; custom: heatmap.FieldConfig };
  'table': { options: table.Options; custom: table.FieldConfig };
  'stat': { options: stat.Options };
  'xychart': { options: xychart.Options; custom: xychart.FieldConfig };
  'barchart': { options: barchart.Options; custom: barchart.FieldConfig };
  'bargauge': { options: bargauge.Options };
  'gauge': { options: gauge.Options };
  'text': { options: text.Options };
  'histogram': { options: histogram.Options; custom: histogram.FieldConfig };
  'piechart': { options: piechart.Options; custom: piechart.FieldConfig };
  'state-timeline': { options: statetimeline.Options; custom: statetimeline.FieldConfig };
  'status-history': { options: statushistory.Options; custom: statushistory.FieldConfig };
  'trend': { options: trend.Options; custom: trend.FieldConfig };
}
