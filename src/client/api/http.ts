import type { ApiErrorBody, ApiErrorCode } from '#shared/api-errors.js';

/** An API call that failed: a network failure has code 'network', others the server's code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode | 'network',
    message: string,
    /** What the server said besides the code, such as the lines short of stock. */
    readonly details: Omit<ApiErrorBody['error'], 'code' | 'message'> = {},
  ) {
    super(message);
  }
}

const send = (path: string, init: RequestInit) =>
  fetch(path, {
    ...init,
    credentials: 'same-origin',
    // A form (with files) names its own type and boundary.
    headers: { accept: 'application/json', ...(init.body && !(init.body instanceof FormData) ? { 'content-type': 'application/json' } : {}), ...init.headers },
  });

/** GETs started before the app's code had arrived (early-requests.ts), each waiting for the app's first ask. */
const startedEarly = new Map<string, Promise<Response>>();
/** Paths the app has asked for: an early start after that would be stale when a later ask took it. */
const asked = new Set<string>();

/** Starts a GET that the app asks for as soon as it runs; its first requestJson of the path takes the answer. */
export function startEarly(path: string): void {
  if (asked.has(path) || startedEarly.has(path)) return;
  const response = send(path, {});
  // A failure is the app's to see, when it takes the answer.
  response.catch(() => undefined);
  startedEarly.set(path, response);
}

export async function requestJson<T>(path: string, init: RequestInit = {}): Promise<T> {
  const early = init.method === undefined ? startedEarly.get(path) : undefined;
  startedEarly.delete(path);
  asked.add(path);
  let response: Response;
  try {
    response = await (early ?? send(path, init));
  } catch (error) {
    throw new ApiError(0, 'network', error instanceof Error ? error.message : 'Network error');
  }
  const body: unknown = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    const { code, message, ...details } = (body as ApiErrorBody | null)?.error ?? { code: 'internal' as const, message: response.statusText };
    throw new ApiError(response.status, code, message, details);
  }
  return body as T;
}
