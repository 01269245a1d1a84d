/** The report rule resource (module in ./report-rule/). */
export { reportRuleResources } from './report-rule/index.js';
