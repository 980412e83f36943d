import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { readFormBody } from '#app/domain/http/form-body.server.ts'
import { json } from '@remix-run/node'
import { Form, useNavigation } from '@remix-run/react'
import { CLEAR_ZONES_CONFIRM } from '#app/components/dashboard/admin/airspace-tab.tsx'
import { AdminDialog, DialogActions } from '#app/components/dashboard/admin/ui.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { clearAllZones } from '#app/domain/admin/airspace-admin.server.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { redirectWithToast } from '#app/domain/http/toast.server.ts'

const BACK = '/admin?tab=airspace'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  return json({})
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  await readFormBody(request)
  try {
    const removed = clearAllZones(admin.id)
    return redirectWithToast(BACK, { title: 'Airspace Zones Cleared', description: `${removed} zone${removed === 1 ? '' : 's'} removed.` })
  } catch (error) {
    console.error('[admin] clearing zones failed', error)
    return redirectWithToast(BACK, { type: 'error', title: 'Clear Failed', description: 'Failed to clear airspace zones' })
  }
}

/** The confirmation without JavaScript (with it, the tab asks with confirm()). */
export default function ClearZonesDialog() {
  const navigation = useNavigation()
  return (
    <AdminDialog title="Clear all zones" closeTo={BACK}>
      <p className="text-sm text-ink-700">{CLEAR_ZONES_CONFIRM}</p>
      <Form method="post">
        <DialogActions closeTo={BACK}>
          <StatusButton pending={navigation.state === 'submitting'} pendingLabel="Clearing…" className="btn-danger">
            Clear all zones
          </StatusButton>
        </DialogActions>
      </Form>
    </AdminDialog>
  )
}

export { AdminDialogErrorBoundary as ErrorBoundary } from '#app/components/dashboard/admin/ui.tsx'
