import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { PilotForm } from '#app/components/dashboard/admin/pilot-form.tsx'
import { AdminDialog } from '#app/components/dashboard/admin/ui.tsx'
import { UpdatePilotSchema } from '#app/domain/admin/schemas.ts'
import { updatePilot } from '#app/domain/admin/users.server.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { fullName } from '#app/domain/users/person-name.ts'
import { pilotLicenceDisplay } from '#app/domain/users/pilot-licence.ts'
import { findUserById } from '#app/domain/users/users.server.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { pageId } from '#app/lib/http/page-errors.server.ts'
import { submitAdminForm } from '#app/routes/_helpers/admin-forms.server.ts'

const CLOSE = '/admin?tab=pilots'

function findPilot(params: { pilotId?: string }) {
  const pilot = findUserById(pageId(params.pilotId))
  if (!pilot || pilot.role !== 'pilot') throw new Response('Pilot not found', { status: 404 })
  return pilot
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  const p = findPilot(params)
  return json({
    pilot: {
      id: p.id,
      licenceDisplay: pilotLicenceDisplay(p.id),
      email: p.email,
      firstName: p.firstName,
      lastName: p.lastName,
      phone: p.phone,
      serviceArea: p.serviceArea,
      droneTypes: p.droneTypes,
      pilotLicenseNumber: p.pilotLicenseNumber,
      pilotLicenseUrl: p.pilotLicenseUrl,
      rplNumber: p.rplNumber,
      rplExpiresAt: p.rplExpiresAt,
      medicalExpiresAt: p.medicalExpiresAt,
      isActive: p.isActive,
    },
  })
}

// The form always sends every field, so fields it leaves blank are validated as required.
const REQUIRED_WHEN_EDITING = {
  serviceArea: 'Service area is required',
  pilotLicenseNumber: 'Pilot license number is required',
  droneTypes: 'At least one drone type is required',
} as const

function missingPilotFields(value: Partial<Record<keyof typeof REQUIRED_WHEN_EDITING, unknown>>) {
  const missing = Object.entries(REQUIRED_WHEN_EDITING)
    .filter(([k]) => !value[k as keyof typeof REQUIRED_WHEN_EDITING])
    .map(([k, m]) => [k, [m]])
  return missing.length ? Object.fromEntries(missing) : null
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const pilot = findPilot(params)
  return submitAdminForm(await readFormBody(request), {
    schema: UpdatePilotSchema,
    failure: 'Failed to update pilot',
    closeTo: CLOSE,
    check: missingPilotFields,
    save: (value) => updatePilot(admin.id, pilot.id, value),
    done: (updated) => ({
      title: 'Pilot Updated',
      description: `${fullName(updated)} has been saved.`,
    }),
  })
}

export default function EditPilotDialog() {
  const { pilot } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <AdminDialog
      title="Edit Pilot"
      description={`${fullName(pilot)} · ${pilot.licenceDisplay}`}
      closeTo={CLOSE}
      wide
    >
      <PilotForm mode="edit" lastResult={actionData?.result} defaults={pilot} closeTo={CLOSE} />
    </AdminDialog>
  )
}

export { AdminDialogErrorBoundary as ErrorBoundary } from '#app/components/dashboard/admin/ui.tsx'
