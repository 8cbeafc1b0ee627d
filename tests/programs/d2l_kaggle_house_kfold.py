# d2l Kaggle house prices: standardised features, log_rmse with clamp, k-fold cross-validation
rng = np.random.default_rng(3)
n_train, n_test, n_feat = 48, 8, 6
raw = rng.standard_normal((n_train + n_test, n_feat)) * np.array([1.0, 10.0, 100.0, 0.1, 5.0, 2.0])
raw[rng.random(raw.shape) < 0.05] = np.nan
# standardise then fill missing values with the (zero) mean, as the chapter does with pandas
mean = np.nanmean(raw, axis=0)
std = np.nanstd(raw, axis=0, ddof=1)
feats = (raw - mean) / std
feats = np.where(np.isnan(feats), 0.0, feats)
prices = np.exp(rng.normal(12.0, 0.3, size=n_train))

train_features = torch.tensor(feats[:n_train], dtype=torch.float32)
test_features = torch.tensor(feats[n_train:], dtype=torch.float32)
train_labels = torch.tensor(prices.reshape(-1, 1), dtype=torch.float32)
print(train_features.shape, test_features.shape, train_labels.dtype)

loss = nn.MSELoss()
in_features = train_features.shape[1]


def get_net():
    net = nn.Sequential(nn.Linear(in_features, 1))
    return net


def log_rmse(net, features, labels):
    # clamp predictions below at 1 so the log is stable
    clipped_preds = torch.clamp(net(features), 1, float("inf"))
    rmse = torch.sqrt(loss(torch.log(clipped_preds), torch.log(labels)))
    return rmse.item()


def load_array(data_arrays, batch_size, is_train=True):
    dataset = torch.utils.data.TensorDataset(*data_arrays)
    return torch.utils.data.DataLoader(dataset, batch_size, shuffle=is_train)


def train(
    net,
    train_features,
    train_labels,
    test_features,
    test_labels,
    num_epochs,
    learning_rate,
    weight_decay,
    batch_size,
):
    train_ls, test_ls = [], []
    train_iter = load_array((train_features, train_labels), batch_size)
    optimizer = torch.optim.Adam(net.parameters(), lr=learning_rate, weight_decay=weight_decay)
    for _epoch in range(num_epochs):
        for X, y in train_iter:
            optimizer.zero_grad()
            batch_loss = loss(net(X), y)
            batch_loss.backward()
            optimizer.step()
        train_ls.append(log_rmse(net, train_features, train_labels))
        if test_labels is not None:
            test_ls.append(log_rmse(net, test_features, test_labels))
    return train_ls, test_ls


def get_k_fold_data(k, i, X, y):
    assert k > 1
    fold_size = X.shape[0] // k
    X_train, y_train = None, None
    for j in range(k):
        idx = slice(j * fold_size, (j + 1) * fold_size)
        X_part, y_part = X[idx, :], y[idx]
        if j == i:
            X_valid, y_valid = X_part, y_part
        elif X_train is None:
            X_train, y_train = X_part, y_part
        else:
            X_train = torch.cat([X_train, X_part], 0)
            y_train = torch.cat([y_train, y_part], 0)
    return X_train, y_train, X_valid, y_valid


def k_fold(k, X_train, y_train, num_epochs, learning_rate, weight_decay, batch_size):
    train_l_sum, valid_l_sum = 0, 0
    for i in range(k):
        data = get_k_fold_data(k, i, X_train, y_train)
        net = get_net()
        train_ls, valid_ls = train(net, *data, num_epochs, learning_rate, weight_decay, batch_size)
        train_l_sum += train_ls[-1]
        valid_l_sum += valid_ls[-1]
        print(
            f"fold {i + 1}, train log rmse {float(train_ls[-1]):f}, "
            f"valid log rmse {float(valid_ls[-1]):f}"
        )
    return train_l_sum / k, valid_l_sum / k


k, num_epochs, lr, weight_decay, batch_size = 4, 6, 5.0, 0.0, 8
train_l, valid_l = k_fold(k, train_features, train_labels, num_epochs, lr, weight_decay, batch_size)
print(
    f"{k}-fold validation: avg train log rmse: {float(train_l):f}, "
    f"avg valid log rmse: {float(valid_l):f}"
)

net = get_net()
train_ls, _ = train(
    net, train_features, train_labels, None, None, num_epochs, lr, weight_decay, batch_size
)
print(f"final train log rmse {float(train_ls[-1]):f}")
preds = net(test_features).detach().numpy()
print(preds.shape, preds.dtype, preds.reshape(1, -1)[0].round(1).tolist()[:3])
out(net(test_features), net[0].weight.grad)
