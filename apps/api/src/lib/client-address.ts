import { isIPv4, isIPv6 } from "node:net";

/**
 * The client as the per-IP limits count it (ADR 0090): an IPv4 address on its own, an IPv6 address by
 * its /64, since one home or phone connection holds a whole /64 and may take a new address from it for
 * every request. An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, how a dual-stack socket reports an IPv4
 * client) is that IPv4 address. Anything else (no address at all) is kept as it is.
 */
export function clientKey(ip: string): string {
  if (isIPv4(ip)) {
    return ip;
  }
  const groups = isIPv6(ip) ? ipv6Groups(ip) : null;
  if (!groups) {
    return ip;
  }
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (zone id dropped, a dotted IPv4 tail converted). */
function ipv6Groups(ip: string): number[] | null {
  let text = ip.split("%")[0] ?? "";
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const part = (s: string) => (s === "" ? [] : s.split(":").map((group) => Number.parseInt(group, 16)));
  const before = part(head);
  const after = tail === undefined ? [] : part(tail);
  const groups = [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
  return groups.length === 8 && groups.every((group) => Number.isInteger(group)) ? groups : null;
}

/**
 * Fastify's `trustProxy` for the TRUST_PROXY setting (ADR 0090). A hop count trusts that many proxies
 * nearest to the API whatever their address, through a trust function: Fastify 5.12 takes a number as
 * "trust nobody", since a client that reaches the API directly could then name its own address. So a hop
 * count is only for an API that nothing but its proxies can reach; the address list checks who hands a
 * request over.
 */
export function trustProxyOption(
  setting: boolean | number | string[] | undefined,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === "number") {
    return (_address, hop) => hop < setting;
  }
  return setting ?? false;
}
