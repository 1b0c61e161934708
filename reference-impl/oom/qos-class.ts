/** The pod QoS class chooses the OOM score band; the rules are the container manager port's. */
export { getPodQOS } from '../container-manager/qos.js';
