/**
 * The reference survey drones inserted once into every database. Camera values
 * are the makers' published specifications; the focal length is the real (not the
 * 35 mm-equivalent) focal length the camera writes into its photos' EXIF.
 * `speedMs` is our planning speed for mapping, not the drone's top speed, and
 * `usableBatteryShare` keeps 25 % of each battery in reserve.
 */
import type { DroneProfileInput } from './drone-profile-schema.ts'

/** Both Phantom 4s carry the same 1" 20 MP camera (8.8 mm, 5472 × 3648) and fly alike. */
const PHANTOM_4 = {
  sensorWidthMm: 13.2,
  sensorHeightMm: 8.8,
  focalLengthMm: 8.8,
  imageWidthPx: 5472,
  imageHeightPx: 3648,
  minTriggerIntervalS: 2,
  speedMs: 8,
  flightTimePerBatteryMin: 30,
  usableBatteryShare: 0.75,
  isActive: true,
} satisfies Omit<DroneProfileInput, 'name'>

export const REFERENCE_DRONES: DroneProfileInput[] = [
  {
    // https://enterprise.dji.com/phantom-4-rtk/specs — 1" CMOS 20 MP, 8.8 mm (24 mm equiv.),
    // 5472 × 3648 (3:2), interval shooting from 2 s, max flight time approx. 30 min.
    name: 'DJI Phantom 4 RTK',
    ...PHANTOM_4,
  },
  {
    // https://www.dji.com/phantom-4-pro-v2/specs — 1" CMOS 20 MP, 8.8 mm (24 mm equiv.),
    // 5472 × 3648 (3:2), timed interval from 2 s, max flight time approx. 30 min.
    name: 'DJI Phantom 4 Pro V2.0',
    ...PHANTOM_4,
  },
  {
    // https://enterprise.dji.com/mavic-3-enterprise/specs — 4/3 CMOS 20 MP (17.3 × 13 mm),
    // 12.29 mm (24 mm equiv.), 5280 × 3956, mechanical shutter, 0.7 s minimum interval,
    // max flight time 45 min.
    name: 'DJI Mavic 3 Enterprise (M3E)',
    sensorWidthMm: 17.3,
    sensorHeightMm: 13,
    focalLengthMm: 12.29,
    imageWidthPx: 5280,
    imageHeightPx: 3956,
    minTriggerIntervalS: 0.7,
    speedMs: 10,
    flightTimePerBatteryMin: 45,
    usableBatteryShare: 0.75,
    isActive: true,
  },
  {
    // https://enterprise.dji.com/zenmuse-p1/specs — full frame 35.9 × 24 mm, 45 MP
    // 8192 × 5460, DL 35 mm F2.8 lens, 0.7 s minimum photo interval.
    // https://enterprise.dji.com/matrice-350-rtk/specs — 55 min without payload; 40 min is
    // our planning figure with the P1 on board.
    name: 'DJI Matrice 350 RTK + Zenmuse P1 (35 mm)',
    sensorWidthMm: 35.9,
    sensorHeightMm: 24,
    focalLengthMm: 35,
    imageWidthPx: 8192,
    imageHeightPx: 5460,
    minTriggerIntervalS: 0.7,
    speedMs: 10,
    flightTimePerBatteryMin: 40,
    usableBatteryShare: 0.75,
    isActive: true,
  },
  {
    // https://www.dji.com/mini-4-pro/specs — 1/1.3" CMOS (9.83 × 7.37 mm), 6.72 mm
    // (24 mm equiv.), 12 MP 4032 × 3024, timed shots from 2 s, max flight time 34 min.
    name: 'DJI Mini 4 Pro',
    sensorWidthMm: 9.83,
    sensorHeightMm: 7.37,
    focalLengthMm: 6.72,
    imageWidthPx: 4032,
    imageHeightPx: 3024,
    minTriggerIntervalS: 2,
    speedMs: 8,
    flightTimePerBatteryMin: 34,
    usableBatteryShare: 0.75,
    isActive: true,
  },
]

/** The drone a new plan starts with when none is chosen. */
export const DEFAULT_DRONE_NAME = 'DJI Mavic 3 Enterprise (M3E)'
