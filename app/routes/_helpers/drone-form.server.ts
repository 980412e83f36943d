/** What the admin's drone dialogs share: the record from the URL and the form's options. */
import { DroneProfileSchema } from '#app/domain/survey/drone-profile-schema.ts'
import { findDroneProfile } from '#app/domain/survey/drone-profiles.server.ts'

import { foundOr404 } from './admin-dialogs.server.ts'

/** `submitAdminForm`'s options for Add Drone and Edit Drone (a rule's message also shows in the form). */
export const DRONE_FORM = {
  schema: DroneProfileSchema,
  failure: 'Please correct the highlighted fields.',
  failureTitle: 'Validation Error',
  messageInForm: true,
  closeTo: '/admin?tab=settings',
}

/** The drone of a dialog URL (its id from `pageId`); a 404 response when there is none. */
export function droneOf(id: number) {
  return foundOr404(findDroneProfile(id), 'Drone profile not found')
}
