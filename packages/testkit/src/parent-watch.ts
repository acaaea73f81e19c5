// Preloaded (`node --import`) into every service a test starts: the service ends when the test
// runner that started it is gone. A runner killed by a timeout or SIGKILL runs no afterAll, and its
// services, re-parented to init, went on polling the shared MariaDB and Cassandra (25 of them at
// once on one machine). The runner names itself in DSCHED_TEST_PARENT_PID (it may be gone before
// this runs); checked at once and then every second, unref'd, so it never keeps a service alive.
const parent = Number(process.env.DSCHED_TEST_PARENT_PID ?? process.ppid);
const check = () => {
  if (process.ppid !== parent) process.kill(process.pid, 'SIGKILL');
};
check();
setInterval(check, 1000).unref();
