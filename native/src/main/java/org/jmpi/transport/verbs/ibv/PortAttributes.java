package org.jmpi.transport.verbs.ibv;

/**
 * What {@code ibv_query_port} says about a port (the fields jmpi uses).
 *
 * @param state      4 = active ({@link Ibv#PORT_ACTIVE}).
 * @param maxMtu     {@code enum ibv_mtu}.
 * @param activeMtu  {@code enum ibv_mtu} ({@link Ibv#mtuBytes}).
 * @param gidTableLength GIDs in the port's table.
 * @param lid        the port's local identifier (InfiniBand; 0 on RoCE).
 * @param linkLayer  1 InfiniBand, 2 Ethernet (RoCE).
 */
public record PortAttributes(int state, int maxMtu, int activeMtu, int gidTableLength, int lid, int linkLayer)
{
    public boolean active()
    {
        return state == Ibv.PORT_ACTIVE;
    }

    /** The state's name as {@code ibv_devinfo} prints it. */
    public String stateName()
    {
        return switch (state)
        {
            case 1 -> "PORT_DOWN";
            case 2 -> "PORT_INIT";
            case 3 -> "PORT_ARMED";
            case 4 -> "PORT_ACTIVE";
            case 5 -> "PORT_ACTIVE_DEFER";
            default -> "PORT_NOP(" + state + ")";
        };
    }
}
