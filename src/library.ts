// The exporter as a library: what a program that runs the exporter in its own process imports (the
// backtest, backtest/, runs it against thousands of simulated nodes on a fake clock). The package's
// `exports` names this file alone; the command line (cli.ts) is the product's other door.
export { startExporter, type Exporter, type ExporterOptions } from './main.js';
export { loadConfig } from './config/load.js';
export { createLogger } from './logger.js';
export { COLLECTORS } from './collectors/index.js';
export { DERIVATIONS, FLEET_DERIVATIONS } from './derive/index.js';
export { formatDuration, parseDuration } from './duration.js';
export { budgetPerNodeDay, FALSE_PAGE_BUDGET } from './monitoring/rules/types.js';
export type { Severity } from './monitoring/settings.js';
