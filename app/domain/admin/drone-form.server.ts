/** What the admin's drone dialogs share: the record from the URL and the form's options. */
import { recordFromParam } from '#app/domain/admin/dialog-routes.server.ts'
import { DroneProfileSchema } from '#app/domain/survey/drone-profile-schema.ts'
import { findDroneProfile } from '#app/domain/survey/drone-profiles.server.ts'

/** `submitAdminForm`'s options for Add Drone and Edit Drone (a rule's message also shows in the form). */
export const DRONE_FORM = {
  schema: DroneProfileSchema,
  failure: 'Please correct the highlighted fields.',
  failureTitle: 'Validation Error',
  messageInForm: true,
  closeTo: '/admin?tab=settings',
}

/** The drone of a dialog URL; a 404 response when there is none. */
export function droneOf(param: string | undefined) {
  return recordFromParam(param, findDroneProfile, 'Drone profile not found')
}
