import { type ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { PilotForm } from '#app/components/dashboard/admin/pilot-form.tsx'
import { AdminDialog } from '#app/components/dashboard/admin/ui.tsx'
import { CreatePilotSchema } from '#app/domain/admin/schemas.ts'
import { createPilot } from '#app/domain/admin/users.server.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { fullName } from '#app/domain/users/person-name.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { adminDialogLoader } from '#app/routes/_helpers/admin-dialogs.server.ts'
import { submitAdminForm } from '#app/routes/_helpers/admin-forms.server.ts'

const CLOSE = '/admin?tab=pilots'

export const loader = adminDialogLoader

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  return submitAdminForm(await readFormBody(request), {
    schema: CreatePilotSchema,
    failure: 'Failed to create pilot',
    closeTo: CLOSE,
    save: (value) => createPilot(admin.id, value),
    done: (pilot) => ({
      title: 'Pilot Created',
      description: `${fullName(pilot)} can now sign in and receive jobs.`,
    }),
  })
}

export default function CreatePilotDialog() {
  const actionData = useActionData<typeof action>()
  return (
    <AdminDialog
      title="Create Pilot"
      description="A pilot account with licence details."
      closeTo={CLOSE}
      wide
    >
      <PilotForm mode="create" lastResult={actionData?.result} closeTo={CLOSE} />
    </AdminDialog>
  )
}

export { AdminDialogErrorBoundary as ErrorBoundary } from '#app/components/dashboard/admin/ui.tsx'
