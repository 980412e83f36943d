import type { SerializeFrom } from '@remix-run/node'
import type { AdminTabData } from '#app/routes/_helpers/admin-tabs.server.ts'

export type AdminData = SerializeFrom<AdminTabData>
export type TabData<T extends AdminData['tab']> = Extract<AdminData, { tab: T }>
