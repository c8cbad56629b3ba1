import type { FastifyInstance } from 'fastify';
import { addressInputSchema, type Address } from '#shared/addresses.js';
import { requireUser } from '#server/auth/session.js';
import type { Database } from '#server/db/client.js';
import { parseInput, pathId } from '#server/http/validation.js';
import { createAddress, deleteAddress, listAddresses, setDefaultAddress, updateAddress } from './service.js';

type AddressesResponse = { addresses: Address[] };
type WithId = { Params: { id: string } };
const addressIdOf = ({ id }: { id: string }) => pathId(id, 'Address not found');

export function registerAddressRoutes(app: FastifyInstance, db: Database): void {
  app.get('/api/addresses', async (request, reply): Promise<AddressesResponse> => {
    const user = await requireUser(db, request);
    reply.header('cache-control', 'no-store');
    return { addresses: await listAddresses(db, user.id) };
  });

  app.post('/api/addresses', async (request, reply) => {
    const user = await requireUser(db, request);
    const input = parseInput(addressInputSchema, request.body);
    return reply.status(201).send({ addresses: await createAddress(db, user.id, input) } satisfies AddressesResponse);
  });

  app.put<WithId>('/api/addresses/:id', async (request): Promise<AddressesResponse> => {
    const user = await requireUser(db, request);
    const input = parseInput(addressInputSchema, request.body);
    return { addresses: await updateAddress(db, user.id, addressIdOf(request.params), input) };
  });

  app.delete<WithId>('/api/addresses/:id', async (request): Promise<AddressesResponse> => {
    const user = await requireUser(db, request);
    return { addresses: await deleteAddress(db, user.id, addressIdOf(request.params)) };
  });

  app.post<WithId>('/api/addresses/:id/default', async (request): Promise<AddressesResponse> => {
    const user = await requireUser(db, request);
    return { addresses: await setDefaultAddress(db, user.id, addressIdOf(request.params)) };
  });
}
