import type { ApiErrorBody, ApiErrorCode } from '../../shared/api-errors.js';

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

export async function requestJson<T>(path: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      ...init,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
    });
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
