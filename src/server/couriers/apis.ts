import type { CourierSettings } from '#server/config.js';
import type { CourierApi } from './courier.js';
import { EcontApi } from './econt.js';
import { SpeedyApi } from './speedy.js';

/** The adapter that speaks the courier's API with the shop's settings. */
export const courierApiFor = (settings: CourierSettings): CourierApi => (settings.name === 'econt' ? new EcontApi(settings) : new SpeedyApi(settings));
