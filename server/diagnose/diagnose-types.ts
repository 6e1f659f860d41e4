export interface ProbeTimeouts {
  dnsMs: number;
  connectMs: number;
  httpMs: number;
}
