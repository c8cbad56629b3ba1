export function dropLeftoverDatabases(serverUrl: string): Promise<void>;
