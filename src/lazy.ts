// A value built on first use, standing in for it meanwhile: zod schemas that scv rarely runs
// (results read back by `scv wait`, `--events` lines, config files most users do not have) cost
// every turn's start-up time to build when their module loads. `lazy(() => z.object(…))` has the
// schema's own type, so `z.infer`, composition and `safeParse` work unchanged.

export function lazy<T extends object>(build: () => T): T {
  let value: T | undefined;
  const target = () => {
    value ??= build();
    return value;
  };
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(target(), key, target()),
    has: (_, key) => Reflect.has(target(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(target()),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
      // A proxy may not report a property non-configurable that its own (empty) target lacks.
      if (descriptor !== undefined) descriptor.configurable = true;
      return descriptor;
    },
  });
}
