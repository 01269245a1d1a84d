/** The team member resource (module in ./team-member/). */
export { teamMemberResources } from './team-member/index.js';
