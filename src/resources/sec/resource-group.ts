/** The resource group resource (module in ./resource-group/). */
export { resourceGroupResources } from './resource-group/index.js';
