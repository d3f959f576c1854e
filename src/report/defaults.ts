// The report's defaults, apart from the code that builds it, so `rlaifv report --help` shows them without loading it.

/** How many pairs the report shows by default (`rlaifv report --pairs`). */
export const DEFAULT_REPORT_PAIRS = 200;
