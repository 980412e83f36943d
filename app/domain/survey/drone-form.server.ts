/** What the admin's drone dialogs share: the record from the URL and the failed-form answer. */
import type { Submission } from '@conform-to/react'
import { json } from '@remix-run/node'
import { DomainError } from '#app/domain/http/domain-error.ts'
import { createToastHeaders } from '#app/domain/http/toast.server.ts'

import { findDroneProfile } from './drone-profiles.server.ts'

/** The drone of a dialog URL; a 404 response when there is none. */
export function droneOf(param: string | undefined) {
  const id = Number(param)
  const drone = Number.isInteger(id) && id > 0 ? findDroneProfile(id) : null
  if (!drone) throw new Response('Drone profile not found', { status: 404 })
  return drone
}

/** 400 (or the business rule's status) with the form's errors and an error toast. */
export async function droneFormFailure(submission: Submission<unknown>, error?: unknown) {
  if (error !== undefined && !(error instanceof DomainError)) throw error
  const fieldErrors = error instanceof DomainError ? error.fieldErrors : undefined
  const result = submission.reply({
    formErrors: error instanceof DomainError && !fieldErrors ? [error.message] : undefined,
    fieldErrors,
  })
  const description = error instanceof DomainError ? error.message : 'Please correct the highlighted fields.'
  return json(
    { result },
    {
      status: error instanceof DomainError ? error.status : 400,
      headers: await createToastHeaders({ type: 'error', title: 'Validation Error', description }),
    },
  )
}
