/** Who a request acts for; every service call that reads or writes data takes one. */
export interface AccountContext {
  id: string;
  name: string;
}
