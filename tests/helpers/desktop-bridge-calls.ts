/** The calls the preload puts on `window.hookscopeDesktop`, in order: exactly these, no more (the page's whole reach). */
export const DESKTOP_BRIDGE_CALLS = [
  'engine',
  'connectTeamServer',
  'useThisComputer',
  'sendFromThisComputer',
  'startForwardFromThisComputer',
  'stopForwardFromThisComputer',
  'forwardsFromThisComputer',
];
