// One mapping from anything a handler can throw to a ServiceError, shared by the REST problem
// responses and the MCP tool errors so both report the same code for the same failure.
import { isServiceError, ServiceError } from "../base/errors.js";
import { SourceUnavailableError } from "../sources/types.js";

export interface MappedFailure {
  error: ServiceError;
  /** True for failures no input explains (bugs): log them. */
  unexpected: boolean;
}

export function asServiceError(e: unknown): MappedFailure {
  if (isServiceError(e)) return { error: e, unexpected: false };
  if (e instanceof SourceUnavailableError) {
    return {
      error: new ServiceError("data_unavailable", `Upstream data is unavailable right now: ${e.message}.`, { retryAfterS: e.retryAfterS }),
      unexpected: false,
    };
  }
  return {
    error: new ServiceError("unavailable", "The service hit an unexpected problem; please retry shortly.", { retryAfterS: 30 }),
    unexpected: true,
  };
}
