import { request, type Dispatcher } from "undici";

export interface BrowserResponse {
  status: number;
  location: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A minimal browser: one cookie jar, redirects followed by the caller, requests through `dispatcher`. */
export class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly dispatcher?: Dispatcher) {}

  async get(url: string, headers: Record<string, string> = {}): Promise<BrowserResponse> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const options: Parameters<typeof request>[1] = { method: "GET", headers: cookie === "" ? headers : { ...headers, cookie } };
    if (this.dispatcher !== undefined) options.dispatcher = this.dispatcher;
    const response = await request(url, options);
    const body = await response.body.text();
    const setCookie = response.headers["set-cookie"];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie]) {
      const pair = line.split(";")[0] ?? "";
      const index = pair.indexOf("=");
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const location = response.headers.location;
    return {
      status: response.statusCode,
      location: typeof location === "string" ? new URL(location, url).href : undefined,
      headers: response.headers,
      body,
    };
  }

  /** Follows redirects from `url` until one points at `stopAt` (returned, not requested), at most `limit` hops. */
  async followUntil(url: string, stopAt: string, limit = 10): Promise<string> {
    let next = url;
    for (let hop = 0; hop < limit; hop += 1) {
      const response = await this.get(next);
      if (response.location === undefined) throw new Error(`no redirect from ${new URL(next).pathname}: ${response.status} ${response.body.slice(0, 300)}`);
      if (response.location.startsWith(stopAt)) return response.location;
      next = response.location;
    }
    throw new Error("too many redirects");
  }
}
