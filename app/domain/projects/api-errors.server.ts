/** Turns a ProjectError into the api.md error answer (`{ error, message }`); rethrows anything else. */
import { apiError } from '#app/domain/http/api.server.ts'

import { ProjectError } from './projects.server.ts'

export function projectApiError(error: unknown) {
  // The spec's draft delete reads `message`; api.md reads `error`: both are sent.
  if (error instanceof ProjectError) {
    return apiError(error.status, error.message, {
      message: error.message,
      ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}),
    })
  }
  throw error
}
