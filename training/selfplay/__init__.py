"""Self-play's opponents: the pool of snapshots and bots drawn by PFSP, who plays which seat
(the seatings), and restart positions; PPO's and NFSP's runs use them."""
